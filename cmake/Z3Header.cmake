# Z3's C++ header, with its move assignment fixed.
#
# z3++.h of Z3 4.8.12 (Debian 12's libz3-dev) moves a term into an
# `ast` without releasing the term it held (`ast::operator=(ast&&)` never
# calls Z3_dec_ref on the old one). Every `e = <temporary>` on a z3::expr,
# and every std::vector erase or std::optional assignment that moves one,
# leaks a term; deleting a context then walks its term table once per level
# of leaked terms, which was a third of `check --matrix`'s time. The fix is
# one call, made here on a copy of the installed header in the build tree
# (the library is used as installed; only this one function changes). A
# header without the faulty body (a later Z3) is used unchanged.
find_file(Z3PP_HEADER z3++.h HINTS ${Z3_INCLUDE_DIRS} NO_CACHE REQUIRED)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${Z3PP_HEADER})
file(READ ${Z3PP_HEADER} z3pp_text)
set(z3pp_leaky [=[
        ast & operator=(ast && s) noexcept {
            if (this != &s) {
                object::operator=(std::forward<object>(s));]=])
set(z3pp_fixed [=[
        ast & operator=(ast && s) noexcept {
            if (this != &s) {
                if (m_ast) Z3_dec_ref(ctx(), m_ast);  // patchcheck: release the old term
                object::operator=(std::forward<object>(s));]=])
string(FIND "${z3pp_text}" "${z3pp_leaky}" z3pp_at)
set(Z3PP_FIXED_DIR ${CMAKE_BINARY_DIR}/generated/z3)
if(z3pp_at EQUAL -1)
  message(STATUS "z3++.h: move assignment releases the old term already; used as installed")
  file(REMOVE ${Z3PP_FIXED_DIR}/z3++.h)
else()
  string(REPLACE "${z3pp_leaky}" "${z3pp_fixed}" z3pp_text "${z3pp_text}")
  file(WRITE ${Z3PP_FIXED_DIR}/z3++.h.new "${z3pp_text}")
  file(COPY_FILE ${Z3PP_FIXED_DIR}/z3++.h.new ${Z3PP_FIXED_DIR}/z3++.h ONLY_IF_DIFFERENT)
  file(REMOVE ${Z3PP_FIXED_DIR}/z3++.h.new)
  message(STATUS "z3++.h: move assignment fixed (${Z3PP_FIXED_DIR}/z3++.h)")
endif()
