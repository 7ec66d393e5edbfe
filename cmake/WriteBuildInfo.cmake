# Run at every build (cmake -P): writes OUT, the checker build's identity,
# only when it changed, so nothing recompiles for nothing. Inputs: SRC (the
# source tree), OUT (generated/BuildInfo.inc), VERSION.
#   commit: the source tree's git commit, "-dirty" with local changes, or
#           "unknown" outside a git checkout;
#   semantics: SHA-256 over the path and content of every source file that
#           decides a verdict (encoder/, model/, checker/spec/,
#           checker/explore/, checker/fetch/): two builds with the same
#           digest prove the same.
set(commit "unknown")
find_program(GIT git)
if(GIT AND EXISTS "${SRC}/.git")
  execute_process(COMMAND ${GIT} -C "${SRC}" rev-parse --short=12 HEAD OUTPUT_VARIABLE c
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(commit "${c}")
    execute_process(COMMAND ${GIT} -C "${SRC}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty ERROR_QUIET)
    if(NOT dirty STREQUAL "")
      set(commit "${commit}-dirty")
    endif()
  endif()
endif()
file(GLOB_RECURSE files RELATIVE "${SRC}" "${SRC}/encoder/*.cpp" "${SRC}/encoder/*.h" "${SRC}/model/*.cpp"
     "${SRC}/model/*.h" "${SRC}/checker/spec/*.cpp" "${SRC}/checker/spec/*.h" "${SRC}/checker/explore/*.cpp"
     "${SRC}/checker/explore/*.h" "${SRC}/checker/fetch/*.cpp" "${SRC}/checker/fetch/*.h")
list(SORT files)
set(all "")
foreach(f ${files})
  file(SHA256 "${SRC}/${f}" h)
  string(APPEND all "${f} ${h}\n")
endforeach()
string(SHA256 semantics "${all}")
set(text "#define PATCHCHECK_COMMIT \"${commit}\"\n#define PATCHCHECK_SEMANTICS_SHA256 \"${semantics}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
