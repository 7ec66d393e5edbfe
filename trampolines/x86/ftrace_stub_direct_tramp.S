# ftrace_stub_direct_tramp for Linux x86-64 (arch/x86/kernel/ftrace_64.S,
# v6.6): a direct trampoline that returns (SYM_FUNC_START: endbr64;
# CALL_DEPTH_ACCOUNT: nothing; RET: ret). Entered like ftrace_caller, by
# F's call or by ftrace_regs_caller's ORIG_RAX exit, with F + 5 at rsp.
# Contract: ftrace_stub_direct_tramp.toml.
ftrace_stub_direct_tramp:
	endbr64
	ret
