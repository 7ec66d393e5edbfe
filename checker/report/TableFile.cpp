#include "checker/report/TableFile.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace patchcheck {
namespace {

using json = nlohmann::json;

// The first shape problem: what is wrong, and the JSON pointer of the value
// it is about (for a missing member, the object that lacks it).
struct ShapeError {
  std::string pointer, message;
};

class Shape {
 public:
  std::optional<ShapeError> error;

  // `j[key]` must exist and satisfy `ok`; `what` names the expected type.
  template <class Ok>
  const json* member(const json& j, const std::string& at, const char* key, const char* what, Ok ok) {
    if (error) return nullptr;
    auto it = j.find(key);
    if (it == j.end()) return fail(at, std::string("missing \"") + key + "\" (" + what + ")");
    if (!ok(*it)) return fail(at + "/" + key, std::string("\"") + key + "\" must be " + what);
    return &*it;
  }
  const json* object(const json& j, const std::string& at, const char* key) {
    return member(j, at, key, "an object", [](const json& v) { return v.is_object(); });
  }
  const json* array(const json& j, const std::string& at, const char* key) {
    return member(j, at, key, "an array", [](const json& v) { return v.is_array(); });
  }
  const json* string(const json& j, const std::string& at, const char* key) {
    return member(j, at, key, "a string", [](const json& v) { return v.is_string(); });
  }
  const json* boolean(const json& j, const std::string& at, const char* key) {
    return member(j, at, key, "true or false", [](const json& v) { return v.is_boolean(); });
  }
  const json* unsignedNumber(const json& j, const std::string& at, const char* key) {
    return member(j, at, key, "a number 0..4294967295",
                  [](const json& v) { return v.is_number_unsigned() && v.get<uint64_t>() <= 0xffffffffu; });
  }
  // Each element of `j[key]` must be an object; `each` checks it.
  template <class Each>
  void objects(const json& j, const std::string& at, const char* key, Each each) {
    const json* a = array(j, at, key);
    if (!a) return;
    for (size_t i = 0; i < a->size() && !error; ++i) {
      std::string here = at + "/" + key + "/" + std::to_string(i);
      if (!(*a)[i].is_object()) fail(here, std::string("each element of \"") + key + "\" must be an object");
      else each((*a)[i], here);
    }
  }

  void require(bool ok, const std::string& pointer, std::string message) {
    if (!ok) fail(pointer, std::move(message));
  }

 private:
  const json* fail(const std::string& pointer, std::string message) {
    if (!error) error = ShapeError{pointer, std::move(message)};
    return nullptr;
  }
};

// Exactly the members the readers use (verify-table, gate's baseline).
std::optional<ShapeError> checkShape(const json& t) {
  Shape s;
  if (!t.is_object()) return ShapeError{"", "not a patchcheck table (format patchcheck-table/1): not a JSON object"};
  const json* format = s.string(t, "", "format");
  if (format && *format != "patchcheck-table/1")
    return ShapeError{"/format", "not a patchcheck table (format patchcheck-table/1)"};
  if (const json* spec = s.object(t, "", "spec")) {
    s.string(*spec, "/spec", "name");
    s.string(*spec, "/spec", "path");
  }
  if (const json* options = s.object(t, "", "options")) s.boolean(*options, "/options", "matrix");
  if (const json* cert = s.object(t, "", "certificate")) {
    if (const json* model = s.object(*cert, "/certificate", "model"))
      s.unsignedNumber(*model, "/certificate/model", "solver_timeout_ms");
    s.string(*cert, "/certificate", "instruction_table_sha256");
    s.array(*cert, "/certificate", "trampolines");
  }
  s.objects(t, "", "targets", [&](const json& target, const std::string& at) {
    s.string(target, at, "target");
    s.objects(target, at, "states", [&](const json& state, const std::string& st) {
      s.string(state, st, "name");
      s.array(state, st, state.contains("instructions") ? "instructions" : "words");  // a byte site: instructions
      s.string(state, st, "behaviour");
    });
    std::vector<std::string> names;  // readers match a transition by its name: one each
    s.objects(target, at, "transitions", [&](const json& tr, const std::string& tt) {
      for (const char* key : {"name", "from", "to", "when"}) s.string(tr, tt, key);
      if (s.error) return;
      std::string name = tr["name"];
      s.require(std::find(names.begin(), names.end(), name) == names.end(), tt + "/name",
                "transition name \"" + name + "\" is in this target twice (a table made before transition "
                "names: name the transitions in the spec and make the table again)");
      names.push_back(name);
      s.objects(tr, tt, "steps", [&](const json& step, const std::string& sp) {
        const json* op = s.string(step, sp, "op");
        if (op && *op == "write") {
          s.unsignedNumber(step, sp, "index");
          s.string(step, sp, "text");
          if (step.contains("bytes")) s.unsignedNumber(step, sp, "bytes");  // a byte site's range
        }
      });
    });
    // Regression cases (expected UNSAFE, not certified): tables from before
    // them have none.
    if (target.contains("regressions"))
      s.objects(target, at, "regressions", [&](const json& r, const std::string& rt) {
        for (const char* key : {"kind", "name", "verdict"}) s.string(r, rt, key);
      });
  });
  return s.error;
}

// Where in the text the value at a JSON pointer starts: the parser is run
// again over an iterator that counts the characters it has consumed, and a
// SAX handler notes the count when it reaches that pointer.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, size_t* consumed) : p_(p), consumed_(consumed) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    ++p_, ++*consumed_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return p_ == o.p_; }

 private:
  const char* p_;
  size_t* consumed_;
};

class PointerFinder : public nlohmann::json_sax<json> {
 public:
  PointerFinder(std::string target, const size_t* consumed) : target_(std::move(target)), consumed_(consumed) {}
  std::optional<size_t> found;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    if (!value()) return false;
    path_.push_back({false, 0, ""});
    return true;
  }
  bool key(string_t& k) override {
    path_.back().key = k;
    return true;
  }
  bool end_object() override { return end(); }
  bool start_array(std::size_t) override {
    if (!value()) return false;
    path_.push_back({true, 0, ""});
    return true;
  }
  bool end_array() override { return end(); }
  // position: the characters read when the error was found (1-based).
  std::optional<std::pair<size_t, std::string>> syntaxError;
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    syntaxError = {position, e.what()};
    return false;
  }

 private:
  // RFC 6901: "~" is "~0" and "/" is "~1" inside a pointer.
  static std::string escaped(const std::string& key) {
    std::string e;
    for (char c : key) e += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return e;
  }
  struct Level {
    bool array;
    size_t started;
    std::string key;
  };
  // The pointer of the value that starts now. An array level counts the
  // values started in it: the one starting now has index `started`, while
  // in an enclosing array the current element is the last one started.
  std::string current() const {
    std::string p;
    for (size_t i = 0; i < path_.size(); ++i) {
      const Level& l = path_[i];
      size_t index = i + 1 == path_.size() ? l.started : l.started - 1;
      p += "/" + (l.array ? std::to_string(index) : escaped(l.key));
    }
    return p;
  }
  // False (stop) once the value starting now is the target.
  bool value() {
    if (current() == target_) {
      found = *consumed_;
      return false;
    }
    if (!path_.empty() && path_.back().array) ++path_.back().started;
    return true;
  }
  bool end() {
    path_.pop_back();
    return true;
  }
  std::vector<Level> path_;
  std::string target_;
  const size_t* consumed_;
};

SourceLocation locate(std::string_view text, size_t offset, const std::string& path) {
  offset = std::min(offset, text.size());
  SourceLocation w{path, 1, 1};
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') ++w.line, w.column = 1;
    else ++w.column;
  }
  return w;
}

}  // namespace

std::variant<json, Diagnostic> parseTableFile(std::string_view text, const std::string& path) {
  // Without exceptions: a number too large for a double is an error of its
  // own kind (out_of_range, not parse_error); the SAX pass says where.
  json t = json::parse(text.begin(), text.end(), nullptr, false);
  if (t.is_discarded()) {
    size_t consumed = 0;
    PointerFinder finder("\x01", &consumed);  // no such pointer: finds the error only
    json::sax_parse(CountingIterator(text.data(), &consumed), CountingIterator(text.data() + text.size(), &consumed),
                    &finder);
    std::string message = finder.syntaxError.value_or(std::pair<size_t, std::string>{0, "not JSON"}).second;
    if (auto colon = message.find("]: "); colon != std::string::npos) message = message.substr(colon + 3);
    size_t at = finder.syntaxError ? finder.syntaxError->first : 0;
    return Diagnostic{locate(text, at ? at - 1 : 0, path), "not valid JSON: " + message};
  }
  auto problem = checkShape(t);
  if (!problem) return t;
  size_t consumed = 0;
  PointerFinder finder(problem->pointer, &consumed);
  json::sax_parse(CountingIterator(text.data(), &consumed), CountingIterator(text.data() + text.size(), &consumed),
                  &finder);
  // The parser has read the value's first character ('{', '[') or its
  // whole token (a token never spans lines): the line is the value's, the
  // column is left unknown.
  size_t at = finder.found ? *finder.found : 0;
  SourceLocation where = locate(text, at ? at - 1 : 0, path);
  where.column = 0;
  std::string pointer = problem->pointer.empty() ? "the table" : problem->pointer;
  return Diagnostic{where, "table at " + pointer + ": " + problem->message};
}

std::variant<json, Diagnostic> loadTableFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostic{{path, 0, 0}, "cannot read the table"};
  std::ostringstream s;
  s << in.rdbuf();
  return parseTableFile(s.str(), path);
}

}  // namespace patchcheck
