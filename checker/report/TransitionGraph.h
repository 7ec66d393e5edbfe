#pragma once
// The picture of one transition: the contents the site can hold while the
// writer runs its steps (nodes, with their words), the writes and barriers
// between them (edges; dashed where the fetch model lets a later write of
// the same barrier group become visible first), and per node the outcomes
// of the passes that run through it, unsafe ones marked. Also the failing
// execution of an UNSAFE transition as a timeline: the writer's steps beside
// the pass's fetches.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/explore/Checker.h"
#include "checker/explore/SiteInstance.h"

namespace patchcheck {

struct GraphNode {
  std::string id;
  std::vector<std::string> words;     // "word 1: jalr t1,at (new)"
  std::vector<std::string> outcomes;  // allowed alternatives some pass takes
  std::optional<std::string> unsafe;  // the broken rule, when a pass breaks one
  bool undecided = false;             // UNKNOWN, for unknownReason
  std::string unknownReason;
  bool explored = false;              // passes were run in it (not at boot, not past the time limit)
  bool programOrder = false;          // reached by the writer's program order
};

struct GraphEdge {
  std::string from, to, label;
  bool reordered = false;  // visible before an earlier write of its group
};

struct TimelineEvent {
  std::string lane;   // "writer" or "pass"
  std::string label;
  unsigned writesLanded = 0;  // pass fetches: how many writes the fetch saw landed
  bool fetch = false;
};

struct TransitionPicture {
  std::string title;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
  // The transition's verdict and counts as `check` gives them: the
  // picture illustrates the check, it does not decide anything itself.
  Verdict verdict = Verdict::Safe;
  unsigned intermediateStates = 0;             // check's count: contents along the writer's order
  std::optional<std::string> brokenRule;       // when UNSAFE
  std::string unknownReason;                   // when UNKNOWN
  bool boot = false;                           // nothing runs the site while it is written
  bool mixesCut = false;                       // more early-visible mixes than drawn (kMaxGraphNodes)
  unsigned unexplored = 0;                     // nodes left unexplored when --max-seconds ran out
  std::vector<TimelineEvent> timeline;         // writer steps, then pass events
};

// Nodes drawn at most: an x86 write of n bytes in one group has 2^n mixes.
constexpr size_t kMaxGraphNodes = 256;

// `maxSeconds` bounds the passes run in the nodes (the check itself keeps
// its own budget): nodes past it are drawn as not explored.
std::variant<TransitionPicture, Diagnostics> transitionPicture(const SiteInstance&, const std::string& transition,
                                                               const CheckOptions&, unsigned maxSeconds = 600);

// Graphviz: the state graph, or the counterexample timeline; format is
// "svg", "png" or "dot". Fills `bytes`; returns an error message on failure.
std::optional<std::string> renderGraph(const TransitionPicture&, bool counterexample, const std::string& format,
                                       std::string& bytes);

}  // namespace patchcheck
