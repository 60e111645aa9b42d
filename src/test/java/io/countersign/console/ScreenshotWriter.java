package io.countersign.console;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/** Writes a scene as it looks now to {@code target/screenshots/<name>.png}, for people to look at. */
final class ScreenshotWriter {
    static final Path DIRECTORY = Path.of("target", "screenshots");

    private ScreenshotWriter() {
    }

    static Path write(Scene scene, String name) {
        WaitForAsyncUtils.waitForFxEvents();
        WritableImage image;
        try {
            image = WaitForAsyncUtils.asyncFx(() -> scene.snapshot(null)).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking the screenshot " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the screenshot " + name + " could not be taken", e);
        }
        int width = (int) image.getWidth();
        int height = (int) image.getHeight();
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        PixelReader pixels = image.getPixelReader();
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                out.setRGB(x, y, pixels.getArgb(x, y));
            }
        }
        try {
            Files.createDirectories(DIRECTORY);
            Path file = DIRECTORY.resolve(name + ".png");
            ImageIO.write(out, "png", file.toFile());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the screenshot " + name + " to " + DIRECTORY, e);
        }
    }
}
