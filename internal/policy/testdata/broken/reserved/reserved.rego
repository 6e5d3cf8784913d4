package mirrorlint.mine

deny contains "x" if false
