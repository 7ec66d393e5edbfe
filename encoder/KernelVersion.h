#pragma once
// A Linux version ("6.3"), for what the patcher of a kernel does that
// changed between releases (x86 text_poke_bp's breakpoint handler: which
// instructions it emulates). {0, 0}: the newest the plug-in models.
#include <compare>
#include <optional>
#include <string>

namespace patchcheck {

struct KernelVersion {
  unsigned major = 0, minor = 0;

  bool newest() const { return major == 0 && minor == 0; }
  auto operator<=>(const KernelVersion&) const = default;
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
  // "MAJOR.MINOR" (both decimal, no sign, no third part), else nothing.
  static std::optional<KernelVersion> parse(const std::string& s) {
    KernelVersion v;
    size_t dot = s.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == s.size() || s.size() > 9) return std::nullopt;
    for (size_t k = 0; k < s.size(); ++k)
      if (k != dot && (s[k] < '0' || s[k] > '9')) return std::nullopt;
    v.major = unsigned(std::stoul(s.substr(0, dot)));
    v.minor = unsigned(std::stoul(s.substr(dot + 1)));
    if (v.newest()) return std::nullopt;
    return v;
  }
};

}  // namespace patchcheck
