// Package files reads the files bn is given — layer files, prompt files,
// other tools' agent files — without ever blocking or reading without
// bound. A named pipe, socket or device (or a symlink to one) is refused
// before any read: it is opened non-blocking and checked, so a FIFO where
// an agent file should be cannot hang a command. Sizes are capped.
package files
