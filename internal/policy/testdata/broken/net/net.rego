package acme.net

deny contains msg if {
	resp := http.send({"method": "GET", "url": "https://policy.acme.example/allowed"})
	resp.status_code != 200
	msg := "policy server unreachable"
}
