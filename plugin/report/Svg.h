//===- Svg.h - Escaping, fixed-point numbers and SVG elements ---*- C++ -*-===//
//
// The few pieces the HTML report builds its pictures from. Coordinates are
// integers and fractions are printed from integer arithmetic, so the page
// is byte-identical on every run and in every locale.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_REPORT_SVG_H
#define LIBTS_REPORT_SVG_H

#include <cstdint>
#include <string>
#include <string_view>

namespace ts {

/// Text safe in HTML content, in attribute values and inside inline SVG:
/// & < > " ' become character references, control characters other than
/// tab and newline (which no markup may carry) become U+FFFD.
std::string escapeHtml(std::string_view S);

/// Part / Whole in percent with at most `Digits` decimals, rounded half
/// up, trailing zeros dropped: percent(1, 3) == "33.333", percent(1, 2) ==
/// "50". A zero Whole gives "0".
std::string percent(uint64_t Part, uint64_t Whole, unsigned Digits = 3);

/// S cut to at most N code points, with "..." at the end when cut: labels
/// inside boxes of a fixed size (the full text goes into a tooltip).
std::string clip(std::string_view S, size_t N);

/// An inline <svg> element built by appending children. Every string
/// argument is plain text: the builder escapes it.
class Svg {
public:
  /// `Width` in pixels, or 0 for the full width of the page.
  Svg(unsigned Width, unsigned Height, std::string_view Class,
      std::string_view Label);

  /// <g class=...> with a tooltip for everything inside it until close().
  Svg &open(std::string_view Class, std::string_view Title = {});
  Svg &close();
  Svg &rect(int X, int Y, int W, int H, std::string_view Class,
            std::string_view Title = {});
  /// A rectangle placed in percent of the picture's width (bars to scale).
  Svg &rectPct(const std::string &X, int Y, const std::string &W, int H,
               std::string_view Class, std::string_view Title = {});
  Svg &circle(int X, int Y, int R, std::string_view Class);
  /// Anchor "start", "middle" or "end".
  Svg &text(int X, int Y, std::string_view Text, std::string_view Class,
            std::string_view Anchor = "start");
  Svg &textPct(const std::string &X, int Y, std::string_view Text,
               std::string_view Class, std::string_view Anchor = "start");
  /// A path from integer commands; `MarkerId` names an arrowhead in defs.
  Svg &path(std::string_view D, std::string_view Class,
            std::string_view MarkerId = {});
  /// An arrowhead marker definition, to be referenced by path().
  Svg &arrowMarker(std::string_view Id, std::string_view Class);

  std::string str() const { return Out + "</svg>\n"; }

private:
  std::string Out;
};

} // namespace ts

#endif
