package acme.failing_test

import data.acme.failing

test_passes if count(failing.deny) == 1

test_denies_nothing if {
	count(failing.deny) == 0
}
