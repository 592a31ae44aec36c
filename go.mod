module github.com/scoutdev/scout

go 1.26.7

require (
	github.com/go-json-experiment/json v1.27.2
	github.com/sahilm/fuzzy v0.1.3
	github.com/spf13/cobra v1.10.2
	go.uber.org/goleak v1.3.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)
