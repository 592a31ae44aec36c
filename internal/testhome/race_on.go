//go:build race

package testhome

const raceEnabled = true
