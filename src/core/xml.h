// Text for XML and HTML: the one escaper of every XML-like output topocheck writes (JUnit reports,
// SVG drawings, the findings site's pages).
#pragma once

#include <string>
#include <string_view>

namespace topocheck {

// `text` for an element's content or a quoted attribute: & < > " ' as entities (&apos; is valid
// in XML and HTML5), and control characters other than tab and newline, which XML 1.0 does not
// allow, as spaces.
std::string xml_escape(std::string_view text);

}  // namespace topocheck
