// Where each value of a JSON text starts, by JSON pointer: the line numbers behind the
// "FILE:LINE: error: ..." messages of the loaders of users' files (check/). nlohmann's parser
// reports positions only for syntax errors; this scanner reports them for every value of a text
// that has already parsed.
//
// Example: for the text
//   {"s": "000",
//    "paths": [["000", "001"],
//              ["000", "010"]]}
// json_pointer_lines gives "" -> 1, "/s" -> 1, "/paths" -> 2, "/paths/0" -> 2, "/paths/0/1" -> 2,
// "/paths/1" -> 3, "/paths/1/0" -> 3. Keys are escaped as JSON pointers ("~0" for '~', "~1" for '/').
// Cost: one pass over the text; the map holds one entry per value.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace topocheck {

// `key` as one token of a JSON pointer (RFC 6901): '~' as "~0", '/' as "~1".
std::string json_pointer_token(const std::string& key);

// Every value's JSON pointer -> the 1-based line where the value starts. Text that is not valid
// JSON gives the values scanned before the first surprise (callers parse with nlohmann first).
std::map<std::string, int> json_pointer_lines(std::string_view text);

// The line of `pointer`, or of its nearest ancestor in `lines` ("/a/b/3" falls back to "/a/b",
// then "/a", then ""); 0 when none is known.
int line_of(const std::map<std::string, int>& lines, std::string pointer);

}  // namespace topocheck
