#pragma once
// SHA-256 (FIPS 180-4) through OpenSSL's EVP interface, as lowercase hex:
// the digests in a patch table's certificate.
#include <string>
#include <string_view>

namespace patchcheck {

std::string sha256Hex(std::string_view bytes);

}  // namespace patchcheck
