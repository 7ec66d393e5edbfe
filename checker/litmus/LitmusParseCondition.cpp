// The file's tail: `locations [...]` and the final condition, a
// proposition over registers, locations and faults. Part of the litmus
// parser (LitmusParserImpl.h).
#include "checker/litmus/LitmusParserImpl.h"

namespace patchcheck::litmus::parser {
namespace {

// Nesting of '(' and '~' in a condition beyond this is refused rather than
// followed, so no file can exhaust the stack.
constexpr unsigned kMaxDepth = 200;

}  // namespace

// `locations [...]` and the condition, to the end of the file.
void Reader::tail(size_t i) {
  std::vector<Token> toks;
  if (!tokenize(i, text_.size(), toks)) return;
  endName_ = "the end of the file";
  Cursor c(toks);
  if (c.isWord() && c.peek().text == "locations") {
    const Token& key = c.next();
    if (!c.is("[")) {
      error(c.peek().offset, "expected '[' after 'locations', found " + describe(c.peek()));
      return;
    }
    c.next();
    size_t first = npos, last = 0;
    for (;;) {
      if (c.atEnd()) {
        error(key.offset, "'locations [' is not closed by ']'");
        return;
      }
      if (c.is("]") || c.is(";")) {
        if (first != npos) test_.locations.emplace_back(slice(first, last));
        first = npos;
        if (c.next().text == "]") break;
        continue;
      }
      const Token& t = c.next();
      if (first == npos) first = t.offset;
      last = t.end;
    }
    if (c.is(";")) c.next();
  }
  if (c.atEnd()) return;  // no condition: the test lists locations only
  const Token& q = c.peek();
  Condition cond;
  cond.at = pos(q.offset);
  if (c.isWord() && q.text == "exists") {
    cond.quantifier = Condition::Quantifier::Exists;
  } else if (c.isWord() && q.text == "forall") {
    cond.quantifier = Condition::Quantifier::Forall;
  } else if (c.is("~") && c.isWord(1) && c.peek(1).text == "exists") {
    cond.quantifier = Condition::Quantifier::NotExists;
    c.next();
  } else {
    error(q.offset, "expected the condition: 'exists', '~exists' or 'forall', found " + describe(q));
    return;
  }
  c.next();
  cond.prop = implication(c, 0);
  if (!cond.prop) return;
  if (!c.atEnd()) {
    error(c.peek().offset, "unexpected " + describe(c.peek()) + " after the condition");
    return;
  }
  test_.condition = std::move(cond);
}

Reader::PropPtr Reader::node(Prop::Kind kind, std::vector<PropPtr> args, Position at) {
  auto p = std::make_shared<Prop>();
  p->kind = kind;
  p->args = std::move(args);
  p->at = at;
  return p;
}

// Weakest first: `=>` (to the right), `\/`, `/\`, then `~`, `( )` and atoms.
Reader::PropPtr Reader::implication(Cursor& c, unsigned depth) {
  PropPtr left = chain(c, depth, "\\/", Prop::Kind::Or);
  if (!left || !c.is("=>")) return left;
  c.next();
  if (depth >= kMaxDepth) return tooDeep(c);
  PropPtr right = implication(c, depth + 1);
  if (!right) return nullptr;
  return node(Prop::Kind::Implies, {left, right}, left->at);
}

Reader::PropPtr Reader::chain(Cursor& c, unsigned depth, std::string_view op, Prop::Kind kind) {
  auto sub = [&] { return kind == Prop::Kind::Or ? chain(c, depth, "/\\", Prop::Kind::And) : unary(c, depth); };
  std::vector<PropPtr> args{sub()};
  while (args.back() && c.is(op)) {
    c.next();
    args.push_back(sub());
  }
  if (!args.back()) return nullptr;
  if (args.size() == 1) return args[0];
  Position at = args[0]->at;
  return node(kind, std::move(args), at);
}

Reader::PropPtr Reader::tooDeep(Cursor& c) {
  error(c.peek().offset, "the condition nests deeper than " + std::to_string(kMaxDepth) + " levels");
  return nullptr;
}

Reader::PropPtr Reader::unary(Cursor& c, unsigned depth) {
  const Token& t = c.peek();
  if (depth >= kMaxDepth) return tooDeep(c);
  if (c.is("~")) {
    c.next();
    PropPtr arg = unary(c, depth + 1);
    if (!arg) return nullptr;
    return node(Prop::Kind::Not, {arg}, pos(t.offset));
  }
  if (c.is("(")) {
    c.next();
    PropPtr inner = implication(c, depth + 1);
    if (!inner) return nullptr;
    if (!c.is(")")) {
      error(c.peek().offset, "expected ')' closing the '(' at " + where(t.offset) + ", found " + describe(c.peek()));
      return nullptr;
    }
    c.next();
    return inner;
  }
  if (c.isWord() && (t.text == "true" || t.text == "false") && !c.is("=", 1)) {
    c.next();
    return node(t.text == "true" ? Prop::Kind::True : Prop::Kind::False, {}, pos(t.offset));
  }
  if (c.isWord() && t.text == "fault" && c.is("(", 1)) return fault(c);
  return atom(c);
}

// `fault(P0:L0,UndefinedInstruction)`: the thread, its label, the rest as written.
Reader::PropPtr Reader::fault(Cursor& c) {
  const Token& key = c.next();
  c.next();  // '('
  auto p = node(Prop::Kind::Fault, {}, pos(key.offset));
  const Token& thread = c.next();
  auto n = thread.kind == Token::Kind::Word ? threadOfName(thread.text) : std::nullopt;
  if (!n) {
    error(thread.offset, "expected a thread P<n> first in fault(...), found " + describe(thread));
    return nullptr;
  }
  p->thread = n;
  if (c.is(":")) {
    c.next();
    const Token& label = c.next();
    if (!label.isName()) {
      error(label.offset, "expected a label after '" + std::string(thread.text) + ":', found " + describe(label));
      return nullptr;
    }
    p->name = std::string(label.text);
    labelUses_.push_back({*n, p->name, label.offset});
  }
  if (c.is(",")) {
    c.next();
    size_t a = c.peek().offset, b = a;
    while (!c.atEnd() && !c.is(")") && !c.is("(")) b = c.next().end;
    p->value.kind = InitValue::Kind::Location;
    p->value.text = std::string(slice(a, b));
    p->value.at = pos(a);
  }
  if (!c.is(")")) {
    error(c.peek().offset, "expected ')' closing fault(...), found " + describe(c.peek()));
    return nullptr;
  }
  c.next();
  return p;
}

// `1:X9=1`, `x=1`, `[x]=1`, `*x=1`.
Reader::PropPtr Reader::atom(Cursor& c) {
  const Token& t = c.peek();
  auto p = node(Prop::Kind::Eq, {}, pos(t.offset));
  if (c.isWord() && isDigit(t.text[0]) && c.is(":", 1)) {
    if (!registerAt(c, p->thread, p->name)) return nullptr;
  } else if (c.is("[") && c.peek(1).isName() && c.is("]", 2)) {
    c.next();
    p->name = std::string(c.next().text);
    c.next();
  } else if (c.is("*") && c.peek(1).isName()) {
    c.next();
    p->name = std::string(c.next().text);
  } else if (t.isName()) {
    p->name = std::string(c.next().text);
  } else {
    error(t.offset, "expected a register such as '1:X9', a location, 'true', 'false', '~' or '(', found " +
                        describe(t));
    return nullptr;
  }
  if (!c.is("=")) {
    error(c.peek().offset, "expected '=' after the register or location, found " + describe(c.peek()));
    return nullptr;
  }
  c.next();
  auto v = value(c);
  if (!v) return nullptr;
  p->value = std::move(*v);
  return p;
}

}  // namespace patchcheck::litmus::parser
