// Error values for boundaries (CLI arguments, corpus files, solver models) and the always-on
// invariant check used inside the library.
//
// Contract: `Result<T>` holds either a value or an `Error` (code, message, optional file:line).
// Library code returns errors at boundaries and aborts loudly (TC_CHECK) on violated invariants.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace topocheck {

enum class ErrorCode {
  kInvalidArgument,  // bad user input: exit 2
  kNotFound,         // unknown claim, missing file: exit 2
  kParse,            // malformed file or text form: exit 2
  kInternal,         // a bug: exit 70
};

struct Error {
  ErrorCode code = ErrorCode::kInvalidArgument;
  std::string message;
  std::string file;  // empty when not about a file
  int line = 0;      // 0 when unknown

  // "FILE:LINE: error: MESSAGE", or "FILE: error: MESSAGE", or "error: MESSAGE".
  std::string to_string() const;
};

inline Error invalid_argument(std::string message) {
  return Error{ErrorCode::kInvalidArgument, std::move(message), {}, 0};
}
inline Error parse_error(std::string message, std::string file = {}, int line = 0) {
  return Error{ErrorCode::kParse, std::move(message), std::move(file), line};
}

// A value or an error. Deliberately small: `ok()`, `value()`, `error()`.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return check_value(), std::get<T>(state_); }
  T& value() & { return check_value(), std::get<T>(state_); }
  T&& value() && { return check_value(), std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  void check_value() const {
    if (!ok()) {
      std::fprintf(stderr, "topocheck: internal error: value() of an error result: %s\n",
                   std::get<Error>(state_).message.c_str());
      std::abort();
    }
  }
  std::variant<T, Error> state_;
};

[[noreturn]] void check_failed(const char* file, int line, const char* condition,
                               const std::string& message);

}  // namespace topocheck

// Always-on invariant check: aborts with file:line, the condition and a message.
#define TC_CHECK(condition, message)                                               \
  do {                                                                             \
    if (!(condition)) ::topocheck::check_failed(__FILE__, __LINE__, #condition, (message)); \
  } while (0)
