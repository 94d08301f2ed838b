//===- Svg.cpp - Escaping, fixed-point numbers and SVG elements -----------===//
#include "report/Svg.h"

namespace ts {

std::string escapeHtml(std::string_view S) {
  std::string Out;
  Out.reserve(S.size());
  for (unsigned char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      if ((C < 0x20 && C != '\t' && C != '\n') || C == 0x7f)
        Out += "&#xfffd;";
      else
        Out += char(C);
    }
  }
  return Out;
}

std::string percent(uint64_t Part, uint64_t Whole, unsigned Digits) {
  if (Whole == 0)
    return "0";
  unsigned __int128 Unit = 1;
  for (unsigned I = 0; I < Digits; ++I)
    Unit *= 10;
  // Rounded half up in integers: no floating point, no locale.
  unsigned __int128 Scaled = (unsigned __int128)Part * 100 * Unit * 2 + Whole;
  Scaled /= (unsigned __int128)Whole * 2;
  std::string Int = std::to_string(uint64_t(Scaled / Unit));
  std::string Frac = std::to_string(uint64_t(Scaled % Unit));
  Frac.insert(0, Digits - Frac.size(), '0');
  while (!Frac.empty() && Frac.back() == '0')
    Frac.pop_back();
  return Frac.empty() ? Int : Int + "." + Frac;
}

std::string clip(std::string_view S, size_t N) {
  // Count code points: a UTF-8 continuation byte starts none.
  size_t Points = 0, Cut = S.size();
  for (size_t I = 0; I < S.size(); ++I) {
    if ((static_cast<unsigned char>(S[I]) & 0xc0) == 0x80)
      continue;
    if (Points == (N > 3 ? N - 3 : 0) && Cut == S.size())
      Cut = I;
    ++Points;
  }
  if (Points <= N)
    return std::string(S);
  return std::string(S.substr(0, Cut)) + "...";
}

namespace {

std::string attr(std::string_view Name, std::string_view Value) {
  return " " + std::string(Name) + "=\"" + escapeHtml(Value) + "\"";
}

std::string num(int V) { return std::to_string(V); }

std::string title(std::string_view T) {
  return T.empty() ? "" : "<title>" + escapeHtml(T) + "</title>";
}

} // namespace

Svg::Svg(unsigned Width, unsigned Height, std::string_view Class,
         std::string_view Label) {
  // A fixed width scrolls inside its figure; 0 stretches to the page.
  Out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("class", Class) +
        attr("role", "img") + attr("aria-label", Label) +
        attr("width", Width ? num(Width) : "100%") +
        attr("height", num(Height));
  if (Width)
    Out += attr("viewBox", "0 0 " + num(Width) + " " + num(Height));
  Out += ">\n";
}

Svg &Svg::open(std::string_view Class, std::string_view Title) {
  Out += "<g" + attr("class", Class) + ">" + title(Title) + "\n";
  return *this;
}

Svg &Svg::close() {
  Out += "</g>\n";
  return *this;
}

Svg &Svg::rect(int X, int Y, int W, int H, std::string_view Class,
               std::string_view Title) {
  return rectPct(num(X), Y, num(W), H, Class, Title);
}

Svg &Svg::rectPct(const std::string &X, int Y, const std::string &W, int H,
                  std::string_view Class, std::string_view Title) {
  Out += "<rect" + attr("x", X) + attr("y", num(Y)) + attr("width", W) +
         attr("height", num(H)) + attr("class", Class);
  Out += Title.empty() ? "/>\n" : ">" + title(Title) + "</rect>\n";
  return *this;
}

Svg &Svg::circle(int X, int Y, int R, std::string_view Class) {
  Out += "<circle" + attr("cx", num(X)) + attr("cy", num(Y)) +
         attr("r", num(R)) + attr("class", Class) + "/>\n";
  return *this;
}

Svg &Svg::text(int X, int Y, std::string_view Text, std::string_view Class,
               std::string_view Anchor) {
  return textPct(num(X), Y, Text, Class, Anchor);
}

Svg &Svg::textPct(const std::string &X, int Y, std::string_view Text,
                  std::string_view Class, std::string_view Anchor) {
  Out += "<text" + attr("x", X) + attr("y", num(Y)) + attr("class", Class);
  if (Anchor != "start")
    Out += attr("text-anchor", Anchor);
  Out += ">" + escapeHtml(Text) + "</text>\n";
  return *this;
}

Svg &Svg::path(std::string_view D, std::string_view Class,
               std::string_view MarkerId) {
  Out += "<path" + attr("d", D) + attr("class", Class);
  if (!MarkerId.empty())
    Out += attr("marker-end", "url(#" + std::string(MarkerId) + ")");
  Out += "/>\n";
  return *this;
}

Svg &Svg::arrowMarker(std::string_view Id, std::string_view Class) {
  // Drawn in the stroke's units so the head scales with the edge.
  Out += "<defs><marker" + attr("id", Id) + attr("viewBox", "0 0 10 10") +
         attr("refX", "10") + attr("refY", "5") + attr("markerWidth", "7") +
         attr("markerHeight", "7") + attr("orient", "auto-start-reverse") +
         "><path d=\"M 0 0 L 10 5 L 0 10 z\"" + attr("class", Class) +
         "/></marker></defs>\n";
  return *this;
}

} // namespace ts
