// The HTML of the findings site (site.h): escaping, the page shell every page shares and the
// site's one style sheet. Plain and accessible by construction: semantic elements (header, nav,
// main, section, table with caption and th scope), a viewport for phone widths, no script, no
// external font or resource; a verdict is always written as a word, its colour only repeats it.
// Cost: linear in the text. No failure modes (every input is text).
#pragma once

#include <string>
#include <string_view>

namespace topocheck::site {

// Text for an HTML element or a double-quoted attribute: core's xml_escape (core/xml.h).
std::string escape(std::string_view text);

// A whole page: <!DOCTYPE html>, <head> with the title, the viewport and a link to style.css at
// `root` ("" for a page at the site's top, "../" one folder down), then <body> with `body`
// (already HTML). `nav` (HTML, may be empty) goes in the header's <nav>.
std::string page(std::string_view title, std::string_view root, std::string_view nav, std::string_view body);

// The site's style sheet (style.css).
std::string style_sheet();

// A verdict or status word as a badge: <span class="status status-WORD">word</span>; the word is
// the text, the class only colours it ("error of the paper" -> status-error-of-the-paper).
std::string badge(std::string_view word);

}  // namespace topocheck::site
