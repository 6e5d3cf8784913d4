package acme.failing

deny contains "always" if true
