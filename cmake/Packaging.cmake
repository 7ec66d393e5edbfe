# What `cmake --install` puts where, and the Debian package CPack makes of it
# (`cpack -G DEB` in the build tree; docs/install.md).
include(GNUInstallDirs)

install(TARGETS patchcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The man page is made from the tool's own --help text (help2man), so it
# cannot drift from the options; scripts/make-manpage adds each command's help.
find_program(HELP2MAN help2man)
if(NOT HELP2MAN)
  message(FATAL_ERROR "help2man not found: install the Debian package help2man (scripts/install-deps)")
endif()
# Installed compressed, as Debian policy has man pages (gzip -n: no time stamp).
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/patchcheck.1 ${CMAKE_BINARY_DIR}/patchcheck.1.gz
  COMMAND ${CMAKE_SOURCE_DIR}/scripts/make-manpage $<TARGET_FILE:patchcheck> ${CMAKE_BINARY_DIR}/patchcheck.1
  COMMAND gzip -9nfk ${CMAKE_BINARY_DIR}/patchcheck.1
  DEPENDS patchcheck ${CMAKE_SOURCE_DIR}/scripts/make-manpage
  COMMENT "Writing the man page patchcheck.1")
add_custom_target(manpage ALL DEPENDS ${CMAKE_BINARY_DIR}/patchcheck.1.gz)
install(FILES ${CMAKE_BINARY_DIR}/patchcheck.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES ${CMAKE_SOURCE_DIR}/packaging/patchcheck.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME patchcheck)

# The docs, and the shipped specs with their trampolines in the layout the
# tool finds them in (a spec's trampolines/ in its directory or above).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/specs ${CMAKE_SOURCE_DIR}/trampolines
        DESTINATION ${CMAKE_INSTALL_DATADIR}/patchcheck)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME patchcheck)
set(CPACK_PACKAGE_CONTACT "patchcheck developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "proofs and counterexamples for live code patching")
set(CPACK_PACKAGE_DESCRIPTION
    "patchcheck proves that a live code-patching sequence (ftrace, live patching) is safe while\n other CPUs run the code being patched, or shows a concrete counterexample.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The run-time libraries the binary links, found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Debug information stays in the build tree: the package carries a stripped binary.
set(CPACK_STRIP_FILES ON)
include(CPack)
