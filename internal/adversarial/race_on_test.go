//go:build race

package adversarial

// raceBuild: the backend under test is built with -race too and runs
// several times slower; the suite scales its rounds down to stay bounded.
const raceBuild = true
