//===- AstWalk.h - The front end's one RecursiveASTVisitor ------*- C++ -*-===//
//
// Every instantiation of clang's RecursiveASTVisitor template costs about
// 15 s of compile time (45 s under ASan), and the front end has many small
// visitors. They derive from AstWalk instead and override the hooks they
// need; the template is instantiated once, in AstWalk.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ASTWALK_H
#define LIBTS_FRONTEND_ASTWALK_H

namespace clang {
class ArraySubscriptExpr;
class AsmStmt;
class BinaryOperator;
class CallExpr;
class CastExpr;
class CXXConstructExpr;
class CXXForRangeStmt;
class CXXMemberCallExpr;
class CXXOperatorCallExpr;
class DeclRefExpr;
class GCCAsmStmt;
class ImplicitCastExpr;
class LambdaExpr;
class ReturnStmt;
class Stmt;
class UnaryOperator;
class VarDecl;
} // namespace clang

namespace ts {

/// A walk of a statement and everything below it, as RecursiveASTVisitor's
/// TraverseStmt with its defaults (no implicit code, no template
/// instantiations, lambda bodies included). Hooks run in its order: a node
/// before its children, a node's general kinds before its specific ones
/// (visitCallExpr, then visitCXXMemberCallExpr); one returning false stops
/// the walk.
class AstWalk {
public:
  virtual ~AstWalk();

  /// Walks S (null: nothing); false if a hook stopped the walk.
  bool walk(const clang::Stmt *S);

  virtual bool visitStmt(clang::Stmt *) { return true; }
  virtual bool visitDeclRefExpr(clang::DeclRefExpr *) { return true; }
  virtual bool visitCallExpr(clang::CallExpr *) { return true; }
  virtual bool visitCXXMemberCallExpr(clang::CXXMemberCallExpr *) {
    return true;
  }
  virtual bool visitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *) {
    return true;
  }
  virtual bool visitCXXConstructExpr(clang::CXXConstructExpr *) { return true; }
  virtual bool visitAsmStmt(clang::AsmStmt *) { return true; }
  virtual bool visitGCCAsmStmt(clang::GCCAsmStmt *) { return true; }
  virtual bool visitUnaryOperator(clang::UnaryOperator *) { return true; }
  virtual bool visitBinaryOperator(clang::BinaryOperator *) { return true; }
  virtual bool visitArraySubscriptExpr(clang::ArraySubscriptExpr *) {
    return true;
  }
  virtual bool visitCastExpr(clang::CastExpr *) { return true; }
  virtual bool visitImplicitCastExpr(clang::ImplicitCastExpr *) { return true; }
  virtual bool visitVarDecl(clang::VarDecl *) { return true; }
  virtual bool visitCXXForRangeStmt(clang::CXXForRangeStmt *) { return true; }
  virtual bool visitReturnStmt(clang::ReturnStmt *) { return true; }

  /// A lambda expression: false skips it whole (captures and body).
  virtual bool enterLambda(clang::LambdaExpr *) { return true; }
  /// After a lambda expression entered was walked.
  virtual void leaveLambda(clang::LambdaExpr *) {}
};

} // namespace ts

#endif
