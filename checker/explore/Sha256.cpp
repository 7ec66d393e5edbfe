#include "checker/explore/Sha256.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace patchcheck {

std::string sha256Hex(std::string_view bytes) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &len) != 1)
    throw std::runtime_error("OpenSSL SHA-256 failed");  // only when the library itself is broken
  static const char* hexDigits = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hexDigits[digest[i] >> 4];
    out += hexDigits[digest[i] & 15];
  }
  return out;
}

}  // namespace patchcheck
