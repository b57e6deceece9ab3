module github.com/binnacle-dev/bn

go 1.26

require (
	github.com/goccy/go-yaml v1.19.2
	github.com/sblinch/kdl-go v0.0.0-20260121213736-8b7053306ca6
)
