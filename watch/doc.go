// Package watch runs a job again whenever files under some directories
// change: the directories are watched, not the files (an editor that
// saves by writing a new file and renaming it over the old one replaces
// the file a handle would follow), each directory's subdirectories too,
// and the nearest existing parent of each, so that a directory created,
// removed or put in another's place is seen and watched again. Changes
// that come together are taken as one: the job runs once they have
// stopped for a moment.
package watch
