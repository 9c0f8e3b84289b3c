import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * PlantUML's pipe mode on several channels at once, in one JVM: one thread per channel runs
 * PlantUML's own command line ({@code net.sourceforge.plantuml.Run}) with the arguments given,
 * and sees System.in, System.out and System.err as its channel's three file descriptors.
 *
 * <p>Usage: {@code java -cp plantuml.jar:DIR DiagbenchPipes IN,OUT,ERR[,IN,OUT,ERR...] ARGS...}
 * where each triple names inherited file descriptors. Threads a channel's thread starts use
 * that channel too. The JVM ends when the first channel's input ends (PlantUML exits then).
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
        String[] fds = args[0].split(",");
        String[] plantuml = Arrays.copyOfRange(args, 1, args.length);
        System.setIn(new RoutedInput(System.in));
        System.setOut(new PrintStream(new RoutedOutput(System.out, false), false));
        System.setErr(new PrintStream(new RoutedOutput(System.err, true), true));
        Thread[] threads = new Thread[fds.length / 3];
        for (int k = 0; k < threads.length; k++) {
            Channel channel = new Channel(fds[3 * k], fds[3 * k + 1], fds[3 * k + 2]);
            threads[k] = new Thread(() -> {
                CHANNEL.set(channel);
                try {
                    net.sourceforge.plantuml.Run.main(plantuml);
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
    }
}
