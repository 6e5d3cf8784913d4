// Package project opens a manifests tree the way every command needs it:
// the config file, the loaded objects, and the clusters they form, each
// with its own settings. Commands stay wiring; this is the shared middle.
package project

import (
	"fmt"
	"os"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/lint"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/render"
)

// Options are the command-line settings that shape loading.
type Options struct {
	Paths []string
	// ConfigPath is --config; empty means look up .mirrorlint.yaml from the
	// working directory upward; "-" or "none" disables the lookup.
	ConfigPath       string
	ReleaseImage     string
	OpenShiftVersion string
	MaxFileSize      int64
	// Cluster selects one cluster by name when the tree has several.
	Cluster string
}

// Project is an opened tree.
type Project struct {
	Config   *config.Config
	Set      *manifest.Set
	Clusters []*lint.Cluster
	Settings lint.Settings
}

// UsageError marks errors that are the caller's to fix (exit code 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usage(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// LoadConfig finds and reads the config file per opts.
func LoadConfig(opts Options) (*config.Config, error) {
	path := opts.ConfigPath
	switch path {
	case "none":
		return &config.Config{}, nil
	case "":
		wd, _ := os.Getwd()
		if path = config.Find(wd); path == "" {
			return &config.Config{}, nil
		}
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("config: %w", err)}
	}
	return c, nil
}

// ResolveSettings merges flags over the config file; flags win.
func ResolveSettings(opts Options, cfg *config.Config) (lint.Settings, error) {
	s := lint.Settings{ReleaseImage: cfg.ReleaseImage, Version: render.Newest}
	if opts.ReleaseImage != "" {
		s.ReleaseImage = opts.ReleaseImage
	}
	v := cfg.OpenShiftVersion
	if opts.OpenShiftVersion != "" {
		v = opts.OpenShiftVersion
	}
	if v != "" {
		pv, err := render.ParseVersion(v)
		if err != nil {
			return s, &UsageError{Err: err}
		}
		s.Version = pv
	}
	return s, nil
}

// Open loads the config, the manifests and the clusters.
func Open(opts Options) (*Project, error) {
	cfg, err := LoadConfig(opts)
	if err != nil {
		return nil, err
	}
	settings, err := ResolveSettings(opts, cfg)
	if err != nil {
		return nil, err
	}
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	set, err := manifest.Load(paths, manifest.Options{MaxFileSize: opts.MaxFileSize, Exclude: cfg.Exclude})
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	p := &Project{Config: cfg, Set: set, Settings: settings}
	p.Clusters = []*lint.Cluster{{Objects: set.Objects, Problems: set.Problems, Settings: settings}}
	if opts.Cluster != "" {
		if err := p.selectCluster(opts.Cluster); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *Project) selectCluster(name string) error {
	for _, c := range p.Clusters {
		if c.Name == name {
			p.Clusters = []*lint.Cluster{c}
			return nil
		}
	}
	var names []string
	for _, c := range p.Clusters {
		names = append(names, c.Name)
	}
	return usage("no cluster named %q (clusters: %v)", name, names)
}
