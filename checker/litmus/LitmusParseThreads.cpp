// The thread table: the header row `P0 | P1 | P0.F` and the rows of code,
// a cell per thread, each `label: ... instruction`. Part of the litmus
// parser (LitmusParserImpl.h).
#include <set>

#include "checker/litmus/LitmusParserImpl.h"

namespace patchcheck::litmus::parser {

// The line at `i` starts the tail: locations, filter or the condition.
bool Reader::startsTail(size_t i) const {
  if (text_[i] == '~') return true;
  for (std::string_view k : {"exists", "forall", "locations", "filter"})
    if (slice(i, std::min(text_.size(), i + k.size())) == k &&
        (i + k.size() == text_.size() || !isWordChar(text_[i + k.size()])))
      return true;
  return false;
}

// The thread table from `i` (after the init block's '}'); returns the
// offset of the tail.
size_t Reader::table(size_t i) {
  bool header = false;
  for (; i < text_.size(); i = lineEnd(i) + 1) {
    size_t a = i, end = lineEnd(i);
    trim(a, end);
    if (a == end) continue;
    if (startsTail(a)) {
      i = a;
      break;
    }
    size_t row = a;
    for (size_t p = a; p < end; ++p)
      if (text_[p] == ';') {
        if (header) cells(row, p);
        else header = columns(row, p);
        row = p + 1;
      }
    size_t ra = row, rb = end;
    trim(ra, rb);
    if (ra != rb) error(rb, "expected ';' at the end of the table row");
  }
  if (!header) error(std::min(i, text_.size()), "missing the thread table: its first row names the threads, as 'P0 | P1 ;'");
  return std::min(i, text_.size());
}

// The header row `P0 | P1 | P0.F`; true once read, even with errors in it.
bool Reader::columns(size_t a, size_t b) {
  size_t start = a;
  unsigned next = 0;
  std::vector<bool> named;  // per column: its name was read
  for (size_t p = a; p <= b; ++p) {
    if (p < b && text_[p] != '|') continue;
    size_t ca = start, cb = p;
    trim(ca, cb);
    start = p + 1;
    Thread t;
    t.at = pos(ca);
    std::string_view name = slice(ca, cb);
    t.faultHandler = name.size() > 2 && name.substr(name.size() - 2) == ".F";
    auto n = threadOfName(t.faultHandler ? name.substr(0, name.size() - 2) : name);
    if (!n) {
      error(ca, "expected a thread name P<n> or P<n>.F (a fault handler) atop the column, found " + quoted(name));
    } else if (!t.faultHandler && *n != next) {
      error(ca, "expected P" + std::to_string(next) + " (threads are numbered from 0 in order), found " + quoted(name));
    }
    if (!t.faultHandler) next = n ? *n + 1 : next + 1;  // a bad name still takes its number
    named.push_back(n.has_value());
    t.name = std::string(name);
    t.number = n.value_or(0);
    test_.threads.push_back(std::move(t));
  }
  std::set<unsigned> owners, handled;
  for (const Thread& t : test_.threads)
    if (!t.faultHandler) owners.insert(t.number);
  for (size_t col = 0; col < test_.threads.size(); ++col) {
    const Thread& t = test_.threads[col];
    if (!t.faultHandler || !named[col]) continue;
    std::string message;
    if (!handled.insert(t.number).second) message = "a second fault handler for P" + std::to_string(t.number);
    else if (!owners.count(t.number)) message = t.name + " handles faults of P" + std::to_string(t.number) + ", which has no column";
    if (!message.empty()) errors_.push_back({{test_.file, t.at.line, t.at.column}, message});
  }
  labelLines_.resize(test_.threads.size());
  return true;
}

// One row of code: a cell per column, each `label: ... instruction`.
void Reader::cells(size_t a, size_t b) {
  std::vector<std::pair<size_t, size_t>> cs;
  size_t start = a;
  for (size_t p = a; p <= b; ++p)
    if (p == b || text_[p] == '|') cs.emplace_back(start, p), start = p + 1;
  if (cs.size() != test_.threads.size()) {
    size_t ra = a, rb = b;
    trim(ra, rb);
    error(ra, "the row has " + std::to_string(cs.size()) + " column(s), the header " +
                  std::to_string(test_.threads.size()));
    return;
  }
  for (size_t col = 0; col < cs.size(); ++col) {
    auto [ca, cb] = cs[col];
    trim(ca, cb);
    Thread& t = test_.threads[col];
    Instruction ins;
    ins.at = pos(ca);
    // Leading `name:` are labels; an instruction never starts so.
    while (ca < cb && isIdentStart(text_[ca])) {
      size_t w = ca;
      while (w < cb && isWordChar(text_[w])) ++w;
      size_t colon = w;
      while (colon < cb && isSpace(text_[colon])) ++colon;
      if (colon == cb || text_[colon] != ':') break;
      std::string label(slice(ca, w));
      if (auto [it, fresh] = labelLines_[col].emplace(label, pos(ca).line); !fresh)
        error(ca, "label '" + label + "' is already defined in " + t.name + " (line " + std::to_string(it->second) + ")");
      ins.labels.push_back(std::move(label));
      ca = colon + 1;
      while (ca < cb && isSpace(text_[ca])) ++ca;
    }
    if (ca < cb) ins.at = pos(ca);
    ins.text = std::string(slice(ca, cb));
    if (ins.text.empty() && ins.labels.empty()) continue;  // an empty cell fills a shorter column
    t.code.push_back(std::move(ins));
  }
}

}  // namespace patchcheck::litmus::parser
