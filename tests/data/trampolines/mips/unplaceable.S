# A trampoline whose contract places its callback where no address is
# aligned as it asks (tests/data/soundness/contract-unplaceable.toml): the
# code is never run, the placement check refuses the spec first.
	.set	noreorder
tramp:
	jr	ra
	 nop
