# ftrace_caller for Linux RISC-V (RV64) with DYNAMIC_FTRACE_WITH_CALL_OPS
# and DYNAMIC_FTRACE_WITH_DIRECT_CALLS (arch/riscv/kernel/mcount-dyn.S,
# v6.16, merge 881dadf0792c), written from what it does. A traced
# function, compiled with -fpatchable-function-entry=4,2 (8,4 with RVC)
# and 8-byte aligned (FUNCTION_ALIGNMENT_8B), is, with tracing on,
#
#	F - 8:	.quad	<struct ftrace_ops *>	# the literal ftrace keeps
#	F:	auipc	t0, %pcrel_hi(ftrace_caller)
#	F + 4:	jalr	t0, %pcrel_lo(F)(t0)	# t0 = F + 8; ra untouched
#
# so t0 - 16 is the literal and t0 - 4 the traced ip (the jalr,
# ftrace_call_adjust). Offsets for a GCC build (asm-offsets.c):
#   FTRACE_OPS_FUNC        = 0    ops->func, the first member
#   FTRACE_OPS_DIRECT_CALL = 208  ops->direct_call (v6.16 lp64, with
#                                 subop_list and managed; 32-byte mutex)
#   struct __arch_ftrace_regs: epc 0, ra 8, sp 16, s0 24, t1 32,
#   direct_tramp 40, a0..a7 48..104; FREGS_SIZE_ON_STACK 112.
# A tracer asks for a direct trampoline by writing fregs->t1
# (arch_ftrace_set_direct_caller); a direct trampoline is entered with
# t0 = where F resumes, ra = F's ra, sp = F's sp (mcount-dyn.S's
# ftrace_stub_direct_tramp is `jr t0`).
# Contract: ftrace_caller.toml; proof: docs/trampolines.md.
ftrace_caller:
	ld	t1, -16(t0)		# ops
	ld	t1, 208(t1)		# ops->direct_call
	bnez	t1, .Ldirect		# a direct trampoline: nothing saved
	addi	sp, sp, -112		# struct ftrace_regs
	sd	t0, 0(sp)		# epc: where F resumes
	sd	ra, 8(sp)		# F's return address
	sd	s0, 24(sp)		# frame-pointer builds save s0 (HAVE_FUNCTION_GRAPH_FP_TEST)
	sd	t1, 32(sp)		# t1 = 0: no direct trampoline unless a tracer sets one
	sd	a0, 48(sp)		# F's arguments, for the tracer and for us
	sd	a1, 56(sp)
	sd	a2, 64(sp)
	sd	a3, 72(sp)
	sd	a4, 80(sp)
	sd	a5, 88(sp)
	sd	a6, 96(sp)
	sd	a7, 104(sp)
	addi	a0, sp, 112		# F's sp
	sd	a0, 16(sp)
	addi	a0, t0, -4		# ip: the jalr in F
	mv	a1, ra			# parent ip: F's return address
	ld	a2, -16(t0)		# ops
	ld	ra, 0(a2)		# ops->func
	mv	a3, sp			# fregs
	jalr	ra
	ld	t0, 0(sp)		# the call may have changed every argument register
	ld	ra, 8(sp)
	ld	s0, 24(sp)
	ld	t1, 32(sp)
	ld	a0, 48(sp)
	ld	a1, 56(sp)
	ld	a2, 64(sp)
	ld	a3, 72(sp)
	ld	a4, 80(sp)
	ld	a5, 88(sp)
	ld	a6, 96(sp)
	ld	a7, 104(sp)
	addi	sp, sp, 112
	bnez	t1, .Ldirect		# a tracer asked for a direct trampoline
	jr	t0			# back to F + 8
.Ldirect:
	jr	t1			# the direct trampolines' convention: t0, ra, sp as at entry
