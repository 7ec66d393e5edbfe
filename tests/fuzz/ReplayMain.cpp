// A main for the fuzz harnesses in the normal build (no libFuzzer): runs
// LLVMFuzzerTestOneInput on every file of the corpus directories given, and
// on derived inputs of each (every prefix at a few cut points, and single
// bytes changed at positions a fixed seed picks), so the harnesses build
// with the tests and their properties run in `make test` without a second
// tree. Coverage-guided fuzzing stays `make fuzz` (libFuzzer, clang).
//
//   fuzz_replay_TARGET [--derived N] DIR...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void run(const std::vector<uint8_t>& input) {
  // A copy of exactly `size` bytes on the heap, so a read past the end is
  // the sanitizers' to see, as under libFuzzer.
  std::vector<uint8_t> copy(input);
  LLVMFuzzerTestOneInput(copy.data(), copy.size());
}

}  // namespace

int main(int argc, char** argv) {
  unsigned derived = 8;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--derived" && i + 1 < argc) {
      derived = unsigned(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(a, ec)) {
      std::fprintf(stderr, "fuzz replay: %s: not a directory\n", a.c_str());
      return 2;
    }
    for (const auto& e : std::filesystem::directory_iterator(a))
      if (e.is_regular_file()) files.push_back(e.path());
  }
  if (files.empty()) {
    std::fprintf(stderr, "fuzz replay: no corpus files given\n");
    return 2;
  }
  std::sort(files.begin(), files.end());
  std::mt19937 rng(20261127);
  unsigned runs = 0;
  for (const auto& f : files) {
    std::vector<uint8_t> input = readAll(f);
    // The name goes out first: a trap inside the harness leaves it as the
    // last line, naming the input that broke a property.
    std::fprintf(stderr, "%s\n", f.string().c_str());
    run(input);
    ++runs;
    for (unsigned k = 1; k <= derived && !input.empty(); ++k) {
      std::vector<uint8_t> cut(input.begin(), input.begin() + input.size() * k / (derived + 1));
      run(cut);
      std::vector<uint8_t> changed(input);
      changed[rng() % changed.size()] = uint8_t(rng());
      run(changed);
      runs += 2;
    }
  }
  std::printf("fuzz replay: %zu corpus files, %u inputs run, no property broken\n", files.size(), runs);
  return 0;
}
