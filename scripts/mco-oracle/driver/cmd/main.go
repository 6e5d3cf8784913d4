//go:build ignore

// Command mirrorlint-oracle is the main program of mirrorlint's fidelity
// driver, built inside a temporary copy of an MCO source tree by
// scripts/mco-oracle/oracle.sh (see its README). For every directory
// under CASES holding a case.json it runs MCO's rendering code and writes
// mco.json next to it.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	crc "github.com/openshift/machine-config-operator/pkg/controller/container-runtime-config"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: mirrorlint-oracle TEMPLATES_DIR CASES_DIR")
		os.Exit(2)
	}
	templates, root := os.Args[1], os.Args[2]
	crc.OracleInit()
	entries, err := os.ReadDir(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		data, err := os.ReadFile(filepath.Join(dir, "case.json"))
		if err != nil {
			continue
		}
		var c crc.OracleCase
		if err := json.Unmarshal(data, &c); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			os.Exit(2)
		}
		out, err := json.Marshal(crc.OracleRun(templates, &c))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "mco.json"), out, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			os.Exit(2)
		}
		n++
	}
	fmt.Fprintf(os.Stderr, "mirrorlint-oracle: %d cases rendered with MCO's code\n", n)
}
