#pragma once
// Small random specs for differential runs of the checker against the
// enumeration: a 3-word site, two states drawn from a vocabulary of words
// that set at/t1/t0 and call or jump through them, random declared
// behaviours, one transition with random write order, interims and barriers,
// random model knobs and target. The verdicts are unknown in advance: only
// agreement is checked (Differential.h).
#include <random>
#include <string>

namespace bruteforce {

std::string randomSpec(std::mt19937_64&, unsigned serial);

}  // namespace bruteforce
