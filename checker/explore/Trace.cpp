#include "checker/explore/Trace.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "checker/explore/Behaviour.h"
#include "encoder/Isa.h"
#include "model/IsaModel.h"

namespace patchcheck {

TraceStep traceStep(const Target& t, const z3::model& m, const z3::expr& pc, const z3::expr& word,
                    std::string origin) {
  TraceStep s;
  s.address = valueIn(m, pc);
  s.word = valueIn(m, word);
  s.bytes = word.get_sort().bv_size() / 8;
  if (t.isa->patchUnitBytes(t) == 1) {
    // Byte-patched (x86): show and decode the bytes in memory order, however many.
    std::vector<uint8_t> bytes;
    bool big = t.isa->instructionByteOrder(t) == Endian::Big;
    for (unsigned k = 0; k < s.bytes; ++k) {
      unsigned at = 8 * (big ? s.bytes - 1 - k : k);
      bytes.push_back(uint8_t(valueIn(m, word.extract(at + 7, at))));
      char h[4];
      snprintf(h, sizeof h, "%02x", bytes.back());
      s.encoding += (k ? " " : "") + std::string(h);
    }
    s.text = t.isa->disassembleBytes(bytes, s.address, t);
  } else {
    s.text = t.isa->disassemble(s.word, s.bytes, s.address, t);
  }
  std::replace(s.text.begin(), s.text.end(), '\t', ' ');
  s.origin = std::move(origin);
  return s;
}

TraceStep traceStep(const Target& t, const z3::model& m, const TrampolineEvent& e) {
  if (e.kind != TrampolineEvent::Kind::Callback) return traceStep(t, m, *e.pc, *e.word, e.origin);
  TraceStep s;
  s.address = valueIn(m, *e.pc);
  s.text = "call " + e.origin + " (ABI model: caller-saved registers and memory below sp change)";
  s.origin = "callback";
  return s;
}

std::vector<std::pair<std::string, uint64_t>> entryRegisters(const MachineState& entry, const z3::model& m) {
  std::vector<std::pair<std::string, uint64_t>> out;
  const auto& file = modelOf(entry.target).registers(entry.target);
  for (size_t r = 0; r < file.size(); ++r)
    if (file[r].general && !file[r].zero) out.push_back({file[r].name, valueIn(m, entry.reg(unsigned(r)))});
  return out;
}

}  // namespace patchcheck
