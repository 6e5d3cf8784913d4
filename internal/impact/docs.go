package impact

import (
	"embed"

	"github.com/mirrorlint/mirrorlint/internal/check"
)

// Each rule's documentation is docs/<rule-id>.md (see check.Docs).
//
//go:embed docs/*.md
var docFiles embed.FS

var doc = check.Docs(docFiles)
