package acme.bad

deny contains {"rule": "typo", "mesage": "misspelt key"} if true
