//go:build race

package scouttest

const raceEnabled = true
