package objective

import "strings"

// pkgPrefix starts the message of every error of this package.
const pkgPrefix = "objective: "

// nested is an error of this package wrapped by another function of it:
// its message is that of err without the package prefix, so that the
// wrapping message, which starts with the prefix itself, reads
// "objective: least squares: dense: …" rather than repeating it, while
// errors.Is and errors.As still reach err through Unwrap.
type nested struct{ err error }

func (e nested) Error() string { return strings.TrimPrefix(e.err.Error(), pkgPrefix) }

func (e nested) Unwrap() error { return e.err }

// inner prepares err, an error that may come from another function of this
// package, for wrapping with %w by a message that starts with the package
// prefix: an err whose message starts with the prefix too is returned as a
// nested error without it, any other err as it is.
func inner(err error) error {
	if strings.HasPrefix(err.Error(), pkgPrefix) {
		return nested{err}
	}
	return err
}
