// The scanner of json_lines.h: a stack of containers, each value recorded where it starts.
#include "core/json_lines.h"

#include <cctype>
#include <vector>

namespace topocheck {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::map<std::string, int> run() {
    skip_space();
    value("");
    return std::move(lines_);
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void advance() {
    if (!at_end() && text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) advance();
  }
  // A string's contents (escapes kept as written: keys with escapes are rare in users' files, and
  // a pointer then names the key as written).
  std::string string() {
    std::string out;
    advance();  // the opening quote
    while (!at_end() && peek() != '"') {
      if (peek() == '\\') {
        advance();
        if (at_end()) break;
        const char e = peek();
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
        advance();
        continue;
      }
      out += peek();
      advance();
    }
    advance();  // the closing quote
    return out;
  }
  // Returns false at the first surprise (the rest is not scanned).
  bool value(const std::string& pointer) {
    skip_space();
    if (at_end()) return false;
    lines_.emplace(pointer, line_);
    const char c = peek();
    if (c == '{') {
      advance();
      skip_space();
      if (peek() == '}') {
        advance();
        return true;
      }
      while (true) {
        skip_space();
        if (peek() != '"') return false;
        const std::string key = string();
        skip_space();
        if (peek() != ':') return false;
        advance();
        if (!value(pointer + "/" + json_pointer_token(key))) return false;
        skip_space();
        if (peek() == ',') {
          advance();
          continue;
        }
        if (peek() == '}') {
          advance();
          return true;
        }
        return false;
      }
    }
    if (c == '[') {
      advance();
      skip_space();
      if (peek() == ']') {
        advance();
        return true;
      }
      for (size_t i = 0;; ++i) {
        if (!value(pointer + "/" + std::to_string(i))) return false;
        skip_space();
        if (peek() == ',') {
          advance();
          continue;
        }
        if (peek() == ']') {
          advance();
          return true;
        }
        return false;
      }
    }
    if (c == '"') {
      string();
      return true;
    }
    // A number or a literal: up to the next delimiter.
    while (!at_end() && peek() != ',' && peek() != '}' && peek() != ']' && !std::isspace(static_cast<unsigned char>(peek())))
      advance();
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  std::map<std::string, int> lines_;
};

}  // namespace

std::string json_pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::map<std::string, int> json_pointer_lines(std::string_view text) { return Scanner(text).run(); }

int line_of(const std::map<std::string, int>& lines, std::string pointer) {
  while (true) {
    if (auto it = lines.find(pointer); it != lines.end()) return it->second;
    if (pointer.empty()) return 0;
    const size_t slash = pointer.rfind('/');
    pointer = slash == std::string::npos ? std::string() : pointer.substr(0, slash);
  }
}

}  // namespace topocheck
