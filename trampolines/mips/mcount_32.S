# _mcount / ftrace_caller / ftrace_stub of the legacy (-pg) scheme for
# 32-bit kernels (o32), as it runs after boot (arch/mips/kernel/ftrace.c
# ftrace_dyn_arch_init has replaced the first word, "b ftrace_stub", by a
# nop, and ftrace_call calls the tracer). Sites (specs/mips/mcount-*.toml):
#
#	vmlinux:  move at, ra; jal _mcount; addiu sp, sp, -8   (as compiled)
#	          move at, ra; jal ftrace_caller + 8; nop      (tracing on)
#	modules:  lui v1, %hi(_mcount); addiu v1, v1, %lo(_mcount);
#	          move at, ra; jalr v1; addiu sp, sp, -8
#
# gcc's o32 -pg call sites move sp down by 8 in the call's delay slot and
# expect _mcount to undo it; ftrace_caller + 8 is the entry for sites whose
# delay slot ftrace has replaced by a nop. On entry ra is where the site
# resumes and at is the traced function's ra. The callback gets ip (the
# jal for vmlinux, the lui for modules: what ftrace recorded) and the
# parent ip, as ftrace_ops_no_ops(ip, parent_ip) on arches without
# ftrace_ops support.
# Contract: mcount_32.toml; proof: docs/trampolines.md.
	.set	noreorder
	.set	noat
ftrace_caller:
_mcount:
	nop				# was "b ftrace_stub" until ftrace_dyn_arch_init
	addiu	sp, sp, 8		# undo the site's delay slot
	# ftrace_caller + 8: vmlinux sites enter here once tracing is on
	addiu	sp, sp, -184		# struct pt_regs (PT_SIZE)
	sw	ra, 156(sp)		# regs[31]: where the site resumes
	sw	at, 36(sp)		# regs[1]: the traced function's ra
	sw	a0, 48(sp)		# regs[4..7]: its arguments
	sw	a1, 52(sp)
	sw	a2, 56(sp)
	sw	a3, 60(sp)
	addiu	a0, ra, -8		# the site's jal (vmlinux)
	lui	t1, %hi(_stext)
	addiu	t1, t1, %lo(_stext)
	sltu	t2, a0, t1		# below kernel text?
	lui	t1, %hi(_etext)
	addiu	t1, t1, %lo(_etext)
	sltu	t3, t1, a0		# above it?
	or	t1, t2, t3
	beqz	t1, ftrace_call
	 nop
	addiu	a0, a0, -12		# a module site: its lui is 12 bytes before the jalr
ftrace_call:
	lui	t9, %hi(ftrace_ops_no_ops)
	addiu	t9, t9, %lo(ftrace_ops_no_ops)
	jalr	t9
	 move	a1, at			# parent ip
	lw	ra, 156(sp)
	lw	at, 36(sp)
	lw	a0, 48(sp)
	lw	a1, 52(sp)
	lw	a2, 56(sp)
	lw	a3, 60(sp)
	addiu	sp, sp, 184
ftrace_stub:
	jr	ra			# back to the site's resume address
	 move	ra, at			# with the traced function's ra
