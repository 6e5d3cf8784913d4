package acme.slow

# Ten billion iterations: finishes long after any sane time limit.
deny contains "never" if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i * j == -1
}
