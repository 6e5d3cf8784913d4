package mco

import "testing"

func TestIsConfigMapKey(t *testing.T) {
	for key, want := range map[string]bool{
		"mirror.example.com..5000": true, "ca-bundle.crt": true, "a_b-c.d": true,
		"mirror.example.com:5000": false, ".": false, "..": false, "..x": false, "a/b": false, "": false,
	} {
		if got := IsConfigMapKey(key); got != want {
			t.Errorf("IsConfigMapKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// Every ".." becomes ":"; a ConfigMap with a refused key never exists.
func TestCertsD(t *testing.T) {
	in := Input{Version: Version{Minor: 20, Patch: -1}, RegistryCAs: map[string]string{"m.example..5000": "A", "x..y..z": "B"}}
	got := CertsD(in)
	if string(got["m.example:5000"]) != "A" || string(got["x:y:z"]) != "B" || len(got) != 2 {
		t.Errorf("%v", got)
	}
	in.RegistryCAs["bad:443"] = "C"
	if got := CertsD(in); got != nil {
		t.Errorf("refused ConfigMap wrote %v", got)
	}
}
