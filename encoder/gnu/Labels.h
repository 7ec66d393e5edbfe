#pragma once
// The names of one assembly run and how a statement resolves them: the
// labels of the source (each at a position the plug-in counts in: a word,
// a byte offset or a statement, and turns into an address), numeric local
// labels (`1:` defined any number of times, `1f`/`1b` the next or last
// definition as seen from a statement), and the symbols the run is given,
// with a concrete address or symbolic.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "encoder/gnu/Expr.h"

namespace patchcheck::gnu {

// The symbols a run is given (AssemblyOptions of every plug-in).
struct GivenSymbols {
  const std::map<std::string, uint64_t>& concrete;
  const std::set<std::string>& symbolic;
};

class Labels {
 public:
  // Defines label `name` (a name, or the digits of a numeric local label)
  // at `position`; the error message when it cannot be.
  std::optional<std::string> define(std::string_view name, uint64_t position, const GivenSymbols&);
  // How many numeric local labels are defined so far: a statement keeps it
  // to find `1f` and `1b` from where it stands.
  unsigned event() const { return event_; }

  std::optional<uint64_t> named(std::string_view name) const;
  std::optional<uint64_t> local(unsigned number, bool forward, unsigned event) const;
  // Names lookup by string_view without building a std::string (hot path).
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Named = std::unordered_map<std::string, uint64_t, NameHash, std::equal_to<>>;
  const Named& all() const { return named_; }

 private:
  struct LocalDef {
    unsigned event;
    uint64_t position;
  };
  Named named_;
  std::unordered_map<unsigned, std::vector<LocalDef>> locals_;  // by number, in source order
  unsigned event_ = 0;
};

// Names as one statement sees them. `addressOf(position)` is the plug-in's
// layout; labels and `.` get origin `labels`, given symbols `symbols`
// (x86: Label and Symbol, as GNU as tells them apart; Number elsewhere).
template <class AddressOf>
class StatementNames final : public NameResolver {
 public:
  StatementNames(const Labels& labels, const GivenSymbols& given, unsigned event, uint64_t here,
                 const AddressOf& addressOf, Origin labelOrigin = Origin::Number,
                 Origin symbolOrigin = Origin::Number)
      : labels_(labels), given_(given), event_(event), here_(here), addressOf_(addressOf),
        labelOrigin_(labelOrigin), symbolOrigin_(symbolOrigin) {}

  Expr dot() const override { return {addressOf_(here_), labelOrigin_}; }
  std::optional<Expr> symbol(std::string_view name) const override {
    if (auto p = labels_.named(name)) return Expr{addressOf_(*p), labelOrigin_};
    std::string n(name);
    if (auto it = given_.concrete.find(n); it != given_.concrete.end())
      return Expr{Value::constant(int64_t(it->second)), symbolOrigin_};
    if (given_.symbolic.count(n)) return Expr{Value{std::move(n), 0}, symbolOrigin_};
    return std::nullopt;
  }
  std::optional<Expr> local(unsigned label, bool forward) const override {
    auto p = labels_.local(label, forward, event_);
    if (!p) return std::nullopt;
    return Expr{addressOf_(*p), labelOrigin_};
  }

 private:
  const Labels& labels_;
  const GivenSymbols& given_;
  unsigned event_;
  uint64_t here_;
  const AddressOf& addressOf_;
  Origin labelOrigin_, symbolOrigin_;
};

}  // namespace patchcheck::gnu
