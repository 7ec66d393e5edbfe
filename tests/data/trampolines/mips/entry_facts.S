# Two entries whose facts differ (tests/data/soundness/entry-facts.toml):
# entry 0 is entered with t0 in {0, 1}, entry 8 with t0 in {2, 3}, each
# by its contract's mode. From entry 8 on, t0 >= 2 takes the branch that
# breaks F's s0. Both entries are proven on one prover, entry 0 first: its
# proof finds that branch impossible, and entry 8's proof asks the same
# question under other facts, where it is possible.
	.set	noreorder
	.set	noat
tramp:
	nop
	nop
	sltiu	t1, t0, 2		# tramp + 8
	beqz	t1, 1f
	 nop
	jr	ra			# back to the site, F's ra restored
	 move	ra, at
1:	addiu	s0, s0, 1		# F's s0 changed: the contract broken
	jr	ra
	 move	ra, at
