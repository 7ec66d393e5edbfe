#pragma once
// `patchcheck scan` (docs/scan.md): every site a build recorded in an
// object, checked against the specs' compiled states. The sites are the
// entries of __patchable_function_entries and __mcount_loc (or, in an
// object recordmcount has not yet seen, its calls to the profiling
// function), moved to rec->ip as Linux's ftrace_call_adjust does (the ISA
// plug-in's ObjectCode). Each site must be an instance of a spec's
// `[scan] compiled` state, its data units aligned as the spec says, no
// branch may land strictly inside a patched range, and every function
// whose entry is compiled for patching must have an entry.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/ElfObject.h"
#include "checker/spec/Spec.h"

namespace patchcheck {

struct ScanFinding {
  std::string where;                 // "func+0x4", or the table entry
  std::string message;
  std::vector<std::string> listing;  // a site that matches no state: its bytes, disassembled
  bool note = false;                 // said, but not a failure (a site in init text)
  std::optional<uint64_t> fileOffset;  // where `where` lies in the file, when it names a place
};

struct ScannedSite {
  std::string where;   // rec->ip as "func+0x4"
  uint64_t ip = 0;     // its section offset (object) or address (linked)
  std::string table;   // the table that recorded it
  std::string spec, state;  // the spec and state it is an instance of (empty: none)
  std::optional<uint64_t> fileOffset;  // of rec->ip's byte in the file
};

struct ObjectScan {
  std::string file;
  std::vector<ScannedSite> sites;
  std::vector<ScanFinding> findings;
  unsigned failures() const;  // findings that are not notes
};

// The object's sites checked against `specs` (those of its machine; each
// has [scan]). An error (no spec for its machine, a bad relocation) is a
// string for exit code 2.
std::variant<ObjectScan, std::string> scanObject(const ElfObject&, const std::vector<const Spec*>& specs);

}  // namespace patchcheck
