//go:build !race

package testhome

const raceEnabled = false
