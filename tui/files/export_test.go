package files

// SetSieveProbe sets how many paths Complete sieves before it judges the
// sieve, for a test that is not parallel; it returns what restores it.
func SetSieveProbe(n int) (restore func()) {
	old := sieveProbe
	sieveProbe = n
	return func() { sieveProbe = old }
}
