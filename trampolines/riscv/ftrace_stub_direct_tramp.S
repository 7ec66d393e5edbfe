# ftrace_stub_direct_tramp for Linux RISC-V (arch/riscv/kernel/mcount-dyn.S,
# v6.16): a direct trampoline that does nothing, entered from F's
# `jalr t0` (or from ftrace_caller's `jr t1`) with t0 = where F resumes
# and ra = F's return address. Its contract is also the convention
# ftrace_caller hands over with (ftrace_caller.toml [call_ops]).
ftrace_stub_direct_tramp:
	jr	t0
