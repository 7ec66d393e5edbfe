# A buggy copy of trampolines/x86/ftrace_stub_direct_tramp.S (tests/unit/trampoline_proof_x86.cpp).
# Bug: `std` before the return: F resumes with the direction flag set,
# which the SysV ABI says is clear at every call and return.
ftrace_stub_direct_tramp:
	endbr64
	std
	ret
