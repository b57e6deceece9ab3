// Package termsafe keeps what bn prints for people from driving their
// terminal: agent files are other people's text, and a control character
// in one (ESC, CSI, a bare carriage return) written raw could move the
// cursor, repaint the screen, set the window title or hide a line.
package termsafe
