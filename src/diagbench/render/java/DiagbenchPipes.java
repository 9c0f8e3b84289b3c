import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * PlantUML's pipe mode on several channels at once, in one JVM: one thread per channel runs
 * PlantUML's own command line ({@code net.sourceforge.plantuml.Run}) with the arguments given,
 * and sees System.in, System.out and System.err as its channel's three file descriptors.
 *
 * <p>Usage: {@code java -cp plantuml.jar:DIR DiagbenchPipes IN,OUT,ERR,FORMAT[,IN,OUT,ERR,FORMAT...]
 * ARGS...} where each quadruple names inherited file descriptors and the image format that
 * channel draws ({@code png}, {@code svg}: PlantUML's {@code -tFORMAT}, given before ARGS).
 * Threads a channel's thread starts use that channel too. A channel ends when its input
 * ends (PlantUML's pipe mode exits then, asked not to end the JVM: a channel that drew
 * nothing exits with PlantUML's status 50); the JVM ends, with status 0, when every channel
 * has, or with status 2 when a channel fails.
 */
public final class DiagbenchPipes {
    private DiagbenchPipes() {
    }

    /** One channel's streams. */
    private static final class Channel {
        final InputStream in;
        final OutputStream out;
        final OutputStream err;

        Channel(String in, String out, String err) throws IOException {
            this.in = new FileInputStream("/dev/fd/" + in);
            this.out = new FileOutputStream("/dev/fd/" + out);
            this.err = new FileOutputStream("/dev/fd/" + err);
        }
    }

    private static final InheritableThreadLocal<Channel> CHANNEL = new InheritableThreadLocal<>();

    /** System.in: the calling thread's channel input (the process's own outside channels). */
    private static final class RoutedInput extends InputStream {
        private final InputStream outside;

        RoutedInput(InputStream outside) {
            this.outside = outside;
        }

        private InputStream target() {
            Channel channel = CHANNEL.get();
            return channel == null ? outside : channel.in;
        }

        @Override
        public int read() throws IOException {
            return target().read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return target().read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            return target().available();
        }
    }

    /** System.out or System.err: the calling thread's channel output. */
    private static final class RoutedOutput extends OutputStream {
        private final OutputStream outside;
        private final boolean errors;

        RoutedOutput(OutputStream outside, boolean errors) {
            this.outside = outside;
            this.errors = errors;
        }

        private OutputStream target() {
            Channel channel = CHANNEL.get();
            return channel == null ? outside : errors ? channel.err : channel.out;
        }

        @Override
        public void write(int b) throws IOException {
            target().write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target().write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            target().flush();
        }
    }

    public static void main(String[] args) throws Exception {
        String[] fields = args[0].split(",");
        System.setProperty("plantuml.noSystemExit", "true");
        System.setIn(new RoutedInput(System.in));
        System.setOut(new PrintStream(new RoutedOutput(System.out, false), false));
        System.setErr(new PrintStream(new RoutedOutput(System.err, true), true));
        Thread[] threads = new Thread[fields.length / 4];
        for (int k = 0; k < threads.length; k++) {
            Channel channel = new Channel(fields[4 * k], fields[4 * k + 1], fields[4 * k + 2]);
            String[] plantuml = new String[args.length];
            plantuml[0] = "-t" + fields[4 * k + 3];
            System.arraycopy(args, 1, plantuml, 1, args.length - 1);
            threads[k] = new Thread(() -> {
                CHANNEL.set(channel);
                try {
                    net.sourceforge.plantuml.Run.main(plantuml);
                } catch (net.sourceforge.plantuml.cli.Exit.ExitRequest end) {
                    // the channel's input has ended
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(2);
                }
            }, "diagbench-channel-" + k);
            threads[k].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.exit(0); // whatever threads PlantUML left running
    }
}
