package acme.broken

deny contains msg if {
	msg := "unterminated
}
