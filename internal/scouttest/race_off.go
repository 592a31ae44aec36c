//go:build !race

package scouttest

const raceEnabled = false
