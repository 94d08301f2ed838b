//===- ExtractAsyncReader.cpp - [[ts::async_reader]] on user functions ----===//
//
// A user's own MMA function (raw wgmma PTX: FP8, register A, shapes
// ts::wgmma lacks) marked [[ts::async_reader]]: a call to it on a stage is
// checked like a ts::wgmma MMA (frontend/Wgmma.cpp), the stage read until a
// ts::wgmma::wait_group sees the group committed after it complete. The
// attribute itself only needs to stand alone on a plain function.
//
//===----------------------------------------------------------------------===//
#include "frontend/Extractor.h"

using namespace clang;

namespace ts {

void Extractor::asyncReader(const SeenAttr &A) {
  const auto *FD = cast<FunctionDecl>(A.D);
  if (!A.Args.empty()) {
    error(A.Args.front().Loc, "[[ts::async_reader]] takes no arguments",
          "write [[ts::async_reader]] alone: its MMAs complete at "
          "ts::wgmma::wait_group, as those of ts::wgmma do");
    return;
  }
  for (const FunctionDecl *R : FD->redecls())
    if (auto K = tsAttrKind(R); K && *K != AttrKind::AsyncReader) {
      error(A.Range.getBegin(),
            std::string("'") + FD->getNameAsString() + "' is a [[" +
                attrName(*K) + "]] and cannot be a [[ts::async_reader]]",
            "mark the function the task calls to issue its MMAs");
      return;
    }
}

} // namespace ts
