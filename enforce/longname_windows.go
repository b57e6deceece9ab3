package enforce

import "syscall"

// shortNames: Windows gives files 8.3 short names (resolve expands them).
const shortNames = true

// longName is the long name of the existing path p (GetLongPathName
// expands its 8.3 short names: PROGRA~1 is Program Files).
func longName(p string) (string, error) {
	in, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		return "", err
	}
	buf := make([]uint16, syscall.MAX_LONG_PATH)
	n, err := syscall.GetLongPathName(in, &buf[0], uint32(len(buf)))
	if err != nil {
		return "", err
	}
	if n > uint32(len(buf)) {
		return "", syscall.ENAMETOOLONG
	}
	return syscall.UTF16ToString(buf[:n]), nil
}
