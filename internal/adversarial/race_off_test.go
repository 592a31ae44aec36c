//go:build !race

package adversarial

const raceBuild = false
