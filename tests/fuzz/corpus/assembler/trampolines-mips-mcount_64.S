# _mcount / ftrace_caller / ftrace_stub of the legacy (-pg) scheme for
# 64-bit kernels (n64), as it runs after boot (arch/mips/kernel/ftrace.c
# ftrace_dyn_arch_init has replaced the first word, "b ftrace_stub", by a
# nop, and ftrace_call calls the tracer). Sites (specs/mips/mcount-*-64.toml):
#
#	vmlinux:  move at, ra; jal _mcount; nop                (as compiled)
#	          move at, ra; jal ftrace_caller + 8; nop      (tracing on)
#	modules:  lui v1, %hi(_mcount); daddiu v1, v1, %lo(_mcount);
#	          move at, ra; jalr v1; nop
#
# n64 call sites do not move sp, so both entries see F's sp. On entry ra is
# where the site resumes and at is the traced function's ra. The callback
# gets ip (the jal for vmlinux, the lui for modules: what ftrace recorded)
# and the parent ip, as ftrace_ops_no_ops(ip, parent_ip).
# Contract: mcount_64.toml; proof: docs/trampolines.md.
	.set	noreorder
	.set	noat
ftrace_caller:
_mcount:
	nop				# was "b ftrace_stub" until ftrace_dyn_arch_init
	nop				# (32-bit kernels undo the site's sp move here)
	# ftrace_caller + 8: vmlinux sites enter here once tracing is on
	daddiu	sp, sp, -304		# struct pt_regs (PT_SIZE)
	sd	ra, 248(sp)		# regs[31]: where the site resumes
	sd	at, 8(sp)		# regs[1]: the traced function's ra
	sd	a0, 32(sp)		# regs[4..11]: its arguments
	sd	a1, 40(sp)
	sd	a2, 48(sp)
	sd	a3, 56(sp)
	sd	a4, 64(sp)
	sd	a5, 72(sp)
	sd	a6, 80(sp)
	sd	a7, 88(sp)
	daddiu	a0, ra, -8		# the site's jal (vmlinux)
	lui	t1, %hi(_stext)
	daddiu	t1, t1, %lo(_stext)
	sltu	t2, a0, t1		# below kernel text?
	lui	t1, %hi(_etext)
	daddiu	t1, t1, %lo(_etext)
	sltu	t3, t1, a0		# above it?
	or	t1, t2, t3
	beqz	t1, ftrace_call
	 nop
	daddiu	a0, a0, -12		# a module site: its lui is 12 bytes before the jalr
ftrace_call:
	lui	t9, %hi(ftrace_ops_no_ops)
	daddiu	t9, t9, %lo(ftrace_ops_no_ops)
	jalr	t9
	 move	a1, at			# parent ip
	ld	ra, 248(sp)
	ld	at, 8(sp)
	ld	a0, 32(sp)
	ld	a1, 40(sp)
	ld	a2, 48(sp)
	ld	a3, 56(sp)
	ld	a4, 64(sp)
	ld	a5, 72(sp)
	ld	a6, 80(sp)
	ld	a7, 88(sp)
	daddiu	sp, sp, 304
ftrace_stub:
	jr	ra			# back to the site's resume address
	 move	ra, at			# with the traced function's ra
